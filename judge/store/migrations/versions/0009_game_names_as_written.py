"""Game names as their creators wrote them: a unique index on lower(name), so that names stay
unique and are found without regard to case while the name itself keeps its letters (Rm1).

Games made before this migration were stored in lower case and stay so.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the unique index on lower(games.name)."""
    op.create_index("uq_games_name_lower", "games", [sa.func.lower(sa.column("name"))], unique=True)


def downgrade() -> None:
    """Drop the index (names written in mixed case keep their letters)."""
    op.drop_index("uq_games_name_lower", table_name="games")
