"""The lab: what develops and proves the game and is not the game. The virtual cabinet (cabinet/),
the benchmarks (benchmarks/), the pad emulator, random play. It lives beside `appliance/` in a clone,
where `./spit` puts it on the path (cabinet-test, bench, pad-emulator); the cabinet's wheel holds
`appliance/` alone, and the lab imports the game, never the other way round."""
