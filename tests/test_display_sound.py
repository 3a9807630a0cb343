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


def test_a_sound_card_plugged_in_later_is_taken_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cabinet started with no sound card (USB card plugged in later, on the virtual cabinet's
    first boot in three): it looks again when the system lists a new card, not for ever silent."""

    def broken(*args: object, **kwargs: object) -> None:
        raise pygame.error("no audio device")

    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    with monkeypatch.context() as broken_mixer:
        broken_mixer.setattr(pygame.mixer, "init", broken)
        sound = Sound.open(0.5, notice=io.StringIO())
    assert sound.silent and sound.wanted == 0.5
    listed = ["--- no soundcards ---\n"]
    sound._cards = listed[0]
    try:
        assert not sound.check_device(10_000_000_000, cards=lambda: listed[0])  # nothing new: no retry
        assert sound.silent
        listed[0] = " 0 [Audio ]: USB-Audio - USB Audio\n"
        assert not sound.check_device(10_500_000_000, cards=lambda: listed[0])  # not before 2 s have passed
        assert sound.check_device(12_000_000_000, cards=lambda: listed[0])
        assert not sound.silent
        sound.play("slap")
        assert sound.played == ["slap"]
        assert not sound.check_device(20_000_000_000, cards=lambda: "")  # sound on: never looks again
    finally:
        pygame.mixer.quit()


def test_sound_turned_off_on_purpose_never_looks_for_a_card() -> None:
    sound = Sound.open(0.0)
    assert not sound.check_device(10_000_000_000, cards=lambda: " 0 [Audio ]: USB-Audio\n")
    assert sound.silent
