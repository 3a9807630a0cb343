from __future__ import annotations

import io

import pygame
import pytest

from appliance.display.sound import TUNES, Sound, samples


def test_every_tune_is_made_by_the_program() -> None:
    for name, tune in TUNES.items():
        data = samples(tune, 22050)
        assert len(data) == sum(int(22050 * d) for _, d, _ in tune), name
        assert max(abs(v) for v in data) > 1000, name  # it makes a sound


def test_sounds_on_the_dummy_audio_device(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    sound = Sound.open(0.5)
    try:
        assert not sound.silent
        sound.play("play")
        assert sound.played == ["play"]
    finally:
        pygame.mixer.quit()


def test_a_failed_audio_device_means_silent_play_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise pygame.error("no audio device here")

    monkeypatch.setattr(pygame.mixer, "init", broken)
    notice = io.StringIO()
    sound = Sound.open(0.5, notice)
    assert sound.silent
    assert notice.getvalue().count("\n") == 1 and "no audio device here" in notice.getvalue()
    sound.play("reject")  # silently
    assert sound.played == ["reject"]


def test_volume_zero_opens_no_device() -> None:
    assert Sound.open(0.0).silent
