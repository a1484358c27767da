"""The sixtui SSH server: one asyncssh process, a Textual session per connection."""
