"""The IMAP poller's position per folder: UIDVALIDITY and the last UID stored.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table the IMAP poller keeps its UIDs in."""
    op.create_table(
        "imap_state",
        sa.Column("mailbox", sa.String(512), primary_key=True),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=False),
        sa.Column("last_uid", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    """Drop the IMAP poller's table."""
    op.drop_table("imap_state")
