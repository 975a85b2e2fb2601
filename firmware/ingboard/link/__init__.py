"""The set's links to the outside: the line-JSON protocol on USB serial and its commands, and the
club relay link (journalled messages, network settings)."""
