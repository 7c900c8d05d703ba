"""The one exception type for a move the rules forbid."""


class IllegalAction(ValueError):
    """An action the rules forbid; `rule` names the RULES section it breaks.

    Raised before any change to the state, so the state is unchanged. `kind` and `fields`, when set
    (`engine.refusals.refusal`), name the refusal, so that a page can word it in the board's language
    (`engine.refusals.refusal_text`); `message` is its English.
    """

    def __init__(self, rule: str, message: str, index: int | None = None, kind: str | None = None,
                 fields: dict | None = None):
        self.rule = rule
        self.message = message
        self.index = index
        self.kind = kind
        self.fields = dict(fields or {})
        super().__init__(self.describe())

    def describe(self) -> str:
        where = f"action {self.index}: " if self.index is not None else ""
        return f"{where}RULES {self.rule}: {self.message}"

    def at(self, index: int) -> "IllegalAction":
        """The same error, located at an action's index in a record."""
        return IllegalAction(self.rule, self.message, index, self.kind, self.fields)


class MalformedRecord(ValueError):
    """A game record that is not valid JSON of the expected shape."""
