"""The screens of the arcade machine, one small module each.

A scene: `on_event(press) -> Transition | None` (a typed `Input`: an inputs Press or a MenuKey),
`update(now_ns) -> Transition | None`, `captions()` (its texts as data, each for a seat or for
everybody) and `draw(canvas)`. Scene changes are returned values (Replace, Push, Pop, Reset, Quit)
applied in one place (`runner.Runner`, a stack of scenes); scenes name each other through the
registry in base.py (`make("title", ctx)`), never by import. Time is passed in, so tests drive a
fake clock.
"""
