"""Wrong passwords per seat, per GM password and per sender, so repeated guesses are slowed down
(judge.desk.passwords) across mails and processes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create password_failures (one row per key; rows go when a right password resets them)."""
    op.create_table(
        "password_failures",
        sa.Column("key", sa.String(998), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failed_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    """Drop password_failures."""
    op.drop_table("password_failures")
