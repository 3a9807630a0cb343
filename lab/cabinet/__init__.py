"""The virtual cabinet: `spit-arcade cabinet-test` boots the cabinet's own image under QEMU and plays
it from outside, as a bar owner's machine would be played.

    image.py   builds (or finds) the test image: systemd/image/build-image.sh --test
    vm.py      one QEMU machine: the image, a virtio-gpu screen, a USB keyboard, a USB serial adapter
               for a slap pad, QMP (screen dumps, keys, power cuts, hot-plug) and the agent's channel
    checks.py  what is checked, from outside, and the figures
    main.py    the command line
"""
