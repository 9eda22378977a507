"""Each processed phase keeps its seats as they were before it (for ROLLBACK), and each press
message the phase it was written in (for HISTORY).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add phases.seats_before and press.phase (both empty for the rows already there)."""
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("seats_before", sa.JSON(none_as_null=True), nullable=True))
    with op.batch_alter_table("press") as batch:
        batch.add_column(sa.Column("phase", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop the seats kept with each phase and the phase kept with each press message."""
    with op.batch_alter_table("press") as batch:
        batch.drop_column("phase")
    with op.batch_alter_table("phases") as batch:
        batch.drop_column("seats_before")
