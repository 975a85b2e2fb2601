"""ingboard firmware: the instrumented go set (board, bowls, Ing clock).

One folder per concept (sensing, tracking, clock, bowls, records, faces, menus, link, app), the
vocabulary they share at this level, the rules core as the separate package `ingrules`;
`ingboard.drivers` is the only place that touches the microcontroller's pins (README,
"Architecture").
"""

VERSION = "0.1.0"
