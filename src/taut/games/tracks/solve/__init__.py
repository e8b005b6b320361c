"""The two-player game solved exactly on small boards (``taut solve tracks``): a compact
board (:mod:`.model`), alpha-beta in a compiled kernel (:mod:`.kernel`), the driver
(:mod:`.search`), the shipped results and the exact policy (:mod:`.book`), the command's
report (:mod:`.report`)."""
