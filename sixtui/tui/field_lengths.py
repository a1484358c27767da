"""The most characters each line a player types may hold: enough for what it is for, and
few enough that nothing one player types costs the other players' time (every character
held is laid out again whenever the line or the window changes)."""

MOVE_LINE = 40  # a turn, such as "J10 K11" or "-12,3>-11,4"
NAME_LINE = 40  # a name being picked: room to show a wrong one and say why
CHAT_LINE = 300  # a line of chat, in the lobby or at a table
COMMAND_LINE = 120  # a command typed in the lobby
