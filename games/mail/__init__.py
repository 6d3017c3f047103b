"""Who gets which email about their games, and exactly once.

`claims` holds what every sender shares: the claim and its give-back, the sweep windows, who is
to move, how an email names the game, and the context every email starts from. `turns` sends
"your turn" and the reminders while a turn waits, telling every turn since the player's own last
one (`since`); `digest` the daily list of waiting games; `endings` the final scores and the news
of a turn whose time ran out; `tables` the invitations and the news of a table; `returns` the
turns that waited for a player back from being away. `send` renders and sends one email,
`pictures` draws the boards an email carries. The periodic sweeps in `games.tasks` call the
finders here; mail reads below the writer and never changes a game.
"""
