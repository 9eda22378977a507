"""The mail daemon's tables: inbox, outbox, addresses, reply counts.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables the inbound side, the processor and the sender share."""
    op.create_table(
        "inbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("message_id", sa.String(998), nullable=True, unique=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("envelope_from", sa.String(998), nullable=True),
        sa.Column("envelope_to", sa.String(998), nullable=True),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(), nullable=True),
        sa.Column("processed_at", sa.DateTime(), nullable=True),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
    )
    op.create_index("ix_inbox_state_id", "inbox", ["state", "id"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("message_id", sa.String(998), nullable=False, unique=True),
        sa.Column("inbox_id", sa.Integer(), sa.ForeignKey("inbox.id"), nullable=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("envelope_from", sa.String(998), nullable=False),
        sa.Column("to_addr", sa.String(998), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("sent_via", sa.String(32), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_index("ix_outbox_inbox_id", "outbox", ["inbox_id"])
    op.create_index("ix_outbox_state_next", "outbox", ["state", "next_attempt_at"])
    op.create_table(
        "addresses",
        sa.Column("address", sa.String(998), primary_key=True),
        sa.Column("permanent_failure", sa.Text(), nullable=True),
        sa.Column("failed_at", sa.DateTime(), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
    )
    op.create_table(
        "reply_counts",
        sa.Column("address", sa.String(998), primary_key=True),
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("notice_sent", sa.Boolean(), nullable=False),
    )


def downgrade() -> None:
    """Drop the mail tables."""
    op.drop_table("reply_counts")
    op.drop_table("addresses")
    op.drop_index("ix_outbox_state_next", table_name="outbox")
    op.drop_index("ix_outbox_inbox_id", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_inbox_state_id", table_name="inbox")
    op.drop_table("inbox")
