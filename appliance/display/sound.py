"""Sounds made by the program: short synthesised sounds, no downloaded assets.

    sound = Sound.open(volume=0.6)     # a failed audio device: silent play, one notice line
    sound.play("play")                 # play, flip, deal, reject, spit, slap, select, count, win

Cards sound like cards: a played card is a short bright snap (noise that dies in 40 ms, its low end
taken out), a turned card a softer one, a deal a run of them; a slap is a thump (a falling low tone
under a burst of noise). Calls and the result are tones.

Tones are 16-bit signed mono samples built with the standard library and handed to
pygame.mixer.Sound(buffer=...), so nothing beyond pygame-ce is needed.
"""

from __future__ import annotations

import contextlib
import io
import math
import sys
from array import array
from collections.abc import Callable
from typing import Any

import pygame

RATE = 22050

# name -> [(frequency Hz, duration s, wave)], played one after the other
TUNES: dict[str, list[tuple[float, float, str]]] = {
    "play": [(0.0, 0.05, "snap")],
    "flip": [(0.0, 0.035, "soft")],
    "deal": [(0.0, 0.04, "soft"), (0.0, 0.03, "rest")] * 5,
    "reject": [(180.0, 0.09, "square"), (140.0, 0.09, "square")],
    "spit": [(520.0, 0.07, "square"), (780.0, 0.12, "square")],
    "slap": [(110.0, 0.14, "thump")],
    "select": [(1320.0, 0.02, "sine")],
    "count": [(660.0, 0.1, "sine")],
    "win": [
        (523.0, 0.12, "square"),
        (659.0, 0.12, "square"),
        (784.0, 0.12, "square"),
        (1047.0, 0.3, "square"),
    ],
}


def samples(tune: list[tuple[float, float, str]], rate: int = RATE) -> array:
    """The tune as 16-bit samples, each note with a short fade in and out (no clicks)."""
    out = array("h")
    seed = 12345
    for frequency, duration, wave in tune:
        n = int(rate * duration)
        fade = max(1, min(n // 4, int(rate * 0.005)))
        last = 0.0
        for i in range(n):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            noise = (seed / 0x3FFFFFFF) - 1.0
            if wave == "rest":
                value, envelope = 0.0, 0.0
            elif wave == "noise":
                value = noise
                envelope = 1.0 - i / n
            elif wave in ("snap", "soft"):
                value, last = noise - last, noise  # differenced noise: the papery top, no rumble
                envelope = math.exp(-i / (rate * (0.008 if wave == "snap" else 0.012)))
                envelope *= 1.0 if wave == "snap" else 0.5
            elif wave == "thump":
                sweep = frequency * (1.0 - 0.5 * i / n)
                value = 0.8 * math.sin(2 * math.pi * sweep * i / rate) + 0.5 * noise * math.exp(-i / (rate * 0.01))
                envelope = math.exp(-i / (rate * 0.045))
            else:
                phase = math.sin(2 * math.pi * frequency * i / rate)
                value = phase if wave == "sine" else (1.0 if phase >= 0 else -1.0) * 0.6
                envelope = min(1.0, i / fade, (n - i) / fade)
            out.append(max(-32767, min(32767, int(value * envelope * 0.5 * 32767))))
    return out


RECHECK_NS = 2_000_000_000  # how often a game without sound looks for a sound card that came later
CARDS = "/proc/asound/cards"  # ALSA's list of sound cards


def cards_listed(path: str = CARDS) -> str:
    """The system's sound cards, as ALSA lists them ("" where it lists none at all)."""
    try:
        with open(path) as cards:
            return cards.read()
    except OSError:
        return ""


class Sound:
    def __init__(self, sounds: dict[str, Any], volume: float, *, wanted: float = 0.0, cards: str = "") -> None:
        self.sounds = sounds
        self.volume = volume
        self.played: list[str] = []  # what was asked for (tests read it)
        self.wanted = wanted  # the volume asked for, while silent for want of a sound card
        self._cards = cards  # the cards listed when it last failed
        self._next_check_ns = 0

    @property
    def silent(self) -> bool:
        return not self.sounds

    @classmethod
    def silence(cls) -> Sound:
        return cls({}, 0.0)

    @classmethod
    def open(cls, volume: float = 0.6, notice: Any = None) -> Sound:
        """The sounds on the default audio device; silent with a one-line notice if it fails."""
        if volume <= 0:
            return cls.silence()
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            init = pygame.mixer.get_init()
            if init is None:
                raise pygame.error("no audio device")
            rate, _, channels = init
            sounds: dict[str, Any] = {}
            for name, tune in TUNES.items():
                data = samples(tune, rate)
                if channels > 1:
                    data = array("h", (v for v in data for _ in range(channels)))
                sound = pygame.mixer.Sound(buffer=data.tobytes())
                sound.set_volume(volume)
                sounds[name] = sound
        except (pygame.error, OSError, ValueError) as error:
            print(f"spit-arcade: no sound ({error}); playing silently", file=notice or sys.stderr)
            with contextlib.suppress(pygame.error):
                pygame.mixer.quit()
            return cls({}, 0.0, wanted=volume, cards=cards_listed())
        return cls(sounds, volume)

    def check_device(self, now_ns: int, cards: Callable[[], str] = cards_listed) -> bool:
        """Silent for want of a sound card: every RECHECK_NS, look whether the system lists a card it
        did not (a USB sound card plugged in after the start, a HAT's driver loaded late) and take it
        up. True when sound came on now. Free when sound is on or was turned off on purpose."""
        if self.sounds or self.wanted <= 0 or now_ns < self._next_check_ns:
            return False
        self._next_check_ns = now_ns + RECHECK_NS
        listed = cards()
        if listed == self._cards:
            return False
        self._cards = listed
        fresh = Sound.open(self.wanted, notice=io.StringIO())
        if fresh.silent:
            return False
        self.sounds, self.volume, self.wanted = fresh.sounds, fresh.volume, 0.0
        print("spit-arcade: a sound card appeared; playing with sound", file=sys.stderr)
        return True

    def play(self, name: str) -> None:
        self.played.append(name)
        del self.played[:-50]
        sound = self.sounds.get(name)
        if sound is not None:
            sound.play()
