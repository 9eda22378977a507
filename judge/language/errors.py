"""What went wrong in a line of orders, said so a player can fix it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OrderError:
    """A line that is not an order: where (line and 1-based column) and what would have fitted."""

    line_no: int
    column: int
    message: str
    expected: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"line {self.line_no}, column {self.column}: {self.message}"


class OrderSyntaxError(ValueError):
    """Raised by `parse_order`; carries the OrderError a reply to the player quotes."""

    def __init__(self, error: OrderError) -> None:
        super().__init__(str(error))
        self.error = error
