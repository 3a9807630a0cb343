"""The operator's layer: the money, the games, the audits, the high scores and the adjustments, in one
store, written off the frame loop. The title, the service menu and the command line call it; the
screen (appliance/display) does no file I/O and no money arithmetic of its own.

    store.py    the one SQLite store on the state partition: schema, migrations, damaged files set aside
    writer.py   the one thread that writes it (a failed write held in memory, tried again)
    office.py   `Office`: coins and credits, games, high scores, adjustments, resets, notices
    books.py    the audits read from the store: totals, earnings by day and week, switch health, CSV
    migrate.py  the first start: the release before's files moved in once
    export.py   the audits as CSV onto the operator's USB stick (named by cabinet, boot, sequence)
    fsyncs.py   syncs to the card counted per thread (the frame thread's must stay 0)

It imports no pygame and nothing of the screen.
"""
