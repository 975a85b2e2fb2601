"""The HTTP server class under the page servers (ingboard sim, the relay's live page).

A browser that goes away (a closed tab, a reload in the middle of a download, a dropped
Wi-Fi) breaks the connection under a request; the stdlib server prints a traceback for
that. Here it is the ordinary end of a conversation and is dropped silently; anything else
still gets one line on stderr (never a traceback).
"""

import sys
from http.server import ThreadingHTTPServer


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return  # the browser went away
        print(
            "page server: request from %s failed: %s: %s"
            % (client_address[0], type(exc).__name__, exc),
            file=sys.stderr,
            flush=True,
        )
