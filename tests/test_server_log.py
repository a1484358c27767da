"""The server's log shows what clients sent escaped: no terminal escape reaches the
operator's terminal, and no line break forges a log line."""

import io
import logging

from hypothesis import given
from hypothesis import strategies as st

from sixtui.server.log_text import LOG_FORMAT, EscapingFormatter, escaped, log_with


def logged(logger_name: str, message: str, *args: object, error: Exception | None = None) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(EscapingFormatter(LOG_FORMAT))
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    try:
        if error is None:
            logger.warning(message, *args)
        else:
            try:
                raise error
            except type(error):
                logger.exception(message, *args)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_an_exec_command_with_escapes_is_logged_escaped_on_one_line():
    text = logged("asyncssh", "Received exec request for %s", "\x1b[2J\x1b]0;pwned\x07\nFAKE")
    assert "\x1b" not in text and "\x07" not in text
    assert text.count("\n") == 1
    assert "\\x1b[2J\\x1b]0;pwned\\x07\\nFAKE" in text


def test_a_traceback_keeps_its_lines_and_letters_stay_as_they_are():
    text = logged("sixtui.server", "Ünïcode names stay: %s", "Zoë", error=ValueError("bad"))
    assert "Ünïcode names stay: Zoë" in text
    assert "Traceback (most recent call last):" in text and text.count("\n") > 2


@given(st.text())
def test_nothing_escaped_holds_a_control_character(text):
    shown = escaped(text)
    assert all(char.isprintable() or char == " " for char in shown)


def test_the_server_logs_its_own_records_and_only_asyncssh_warnings():
    root, asyncssh_log = logging.getLogger(), logging.getLogger("asyncssh")
    handlers, level, asyncssh_level = root.handlers[:], root.level, asyncssh_log.level
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(EscapingFormatter(LOG_FORMAT))
    try:
        log_with(handler)
        logging.getLogger("sixtui.server.login").info("connect peer=127.0.0.1")
        asyncssh_log.info("[conn=0] Accepted SSH connection")
        asyncssh_log.warning("[conn=0] Connection failure")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        asyncssh_log.setLevel(asyncssh_level)
    lines = written.getvalue().splitlines()
    assert [line.split(" ", 3)[-1] for line in lines] == [
        "connect peer=127.0.0.1",
        "[conn=0] Connection failure",
    ]
