"""The screens of the arcade machine, one small module each.

A scene: `on_event(press) -> Transition | None`, `update(now_ns) -> Transition | None`,
`draw(canvas)`. Scene changes are returned values, applied in one place (`runner.Runner`); time
is passed in, so tests drive a fake clock.
"""
