"""Benchmarks: `spit-arcade bench rules|inputs|render`."""
