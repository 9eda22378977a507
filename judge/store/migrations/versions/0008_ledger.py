"""The ledger: every movement of a game's money (Mercenary), one row each.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the ledger table."""
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column(
            "phase_record_id",
            sa.Integer(),
            sa.ForeignKey("phases.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("payer", sa.String(32), nullable=False),
        sa.Column("payee", sa.String(32), nullable=False),
        sa.Column("currency", sa.String(32), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("why", sa.Text(), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_ledger_game_id", "ledger", ["game_id", "id"])


def downgrade() -> None:
    """Drop the ledger."""
    op.drop_index("ix_ledger_game_id", table_name="ledger")
    op.drop_table("ledger")
