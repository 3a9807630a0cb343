"""The game on screen: a pygame-ce arcade front end (`spit-arcade play`, `spit-arcade replay --show`).

The screen only reads the rules core's state and sends it presses; it never changes game state.

    app.py          `spit-arcade play`: options, window or full screen (vsync), clean exits
    runner.py       the frame loop: events in, a stack of scenes changed in one place, the difference drawn
    scenes/         title (attract), choose, countdown, play, round summary, game over, settings (pushed
                    over any of them); registered by name in scenes/base.py, so none imports another;
                    play, round summary and game over are every table game's, with what is a game's
                    own in its policy (scenes/table_game.py: spit_words.py, speed_words.py)
    match.py        one game: rules core + journal + computer players (no pygame)
    events.py       the one place the core's events are read (and the table's sides asked)
    table_view.py   the table drawn from state, and the feedback (slides, flips, deals, shakes, races);
                    speed_view.py: Speed's; both made of table_pieces.py (card images, piles, legends)
    captions.py     every text as data: its owner seat (or everybody), its place, fitted and turned
    layout.py       desktop and tabletop geometry, with each seat's text places
    card_art.py     cards drawn by code; legend.py: each seat's keys as it reads them
    compositor.py   redraw only what changed; fonts.py: DejaVu Sans Bold, text made once
    i18n.py         English, German, Esperanto through gettext catalogues (locale/*/LC_MESSAGES/*.po)
    sound.py        synthesised sounds; keys.py: keyboard play
    stats.py        each player's figures; replay_show.py: journals on screen

The settings, the configuration checks and safe file writing are appliance/shared/ (which imports
no screen); nothing outside this package imports it but the command line that starts it
(appliance/cli.py, `bench render`). The tests' harness for the screen is tests/headless.py.

Drawing approach (for the Raspberry Pi's CPU): software surfaces, with everything that can be made
ahead made once (card images, text, the felt with its labels) and each frame described as a list of
ready images. The compositor compares that list with the last frame's and repaints and presents only
the rectangles that changed: a still table costs nothing, a card sliding to a spit pile costs two
card-sized rectangles, a press that lights a pile one. GPU textures through pygame's SDL2 renderer
(pygame._sdl2.video) were the alternative; they would make full repaints cheap on the Pi's GPU, but
that API is marked experimental in pygame-ce, needs every text and card turned into textures, and
cannot be exercised headless on a machine without a GPU, where our tests run. With dirty rectangles
the per-frame CPU cost is proportional to what moves, which is small in a card game.
"""
