"""The director's credentials: anything beyond viewing needs them.

The relay is started with `--director-password-file F` (the password on the file's first line;
the user name is `director`, or `--director-user`). The director's page and every request that
changes something (imports, table bindings, confirmations, corrections, alerts handled,
exports) then need HTTP Basic credentials; the browser asks for them once. Everyone else sees
only the public pages. Without a password file the desk is off (every director request: 403).

Requests that change something are POSTs that must also carry the header
`X-Ingboard: director` (a page on another site cannot send it without the relay's consent, so a
director's browser cannot be made to post from elsewhere) and at most MAX_BODY bytes.
Passwords are compared in constant time. Basic credentials travel in clear text: run the relay
on the venue's own network (or behind a TLS proxy).
"""

import base64
import hmac

MAX_BODY = 8 * 1024 * 1024
HEADER = "X-Ingboard"
REALM = "ingboard director"


class DirectorAuth:
    def __init__(self, password, user="director"):
        if not password:
            raise ValueError("the director's password is empty")
        self.user = user
        self.password = password

    @classmethod
    def from_file(cls, path, user="director"):
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        return cls(lines[0].strip() if lines else "", user)

    def check(self, header):
        """True when an Authorization header holds the director's credentials."""
        if not header or not header.startswith("Basic "):
            return False
        try:
            text = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
        except (ValueError, UnicodeError):
            return False
        user, sep, password = text.partition(":")
        if not sep:
            return False
        ok_user = hmac.compare_digest(user.encode(), self.user.encode())
        ok_password = hmac.compare_digest(password.encode(), self.password.encode())
        return ok_user and ok_password
