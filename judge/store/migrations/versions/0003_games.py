"""Games by mail: persons and addresses, games, seats, observers, orders, history and press.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables the desk keeps games in (judge/store/games.py)."""
    op.create_table(
        "persons",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "person_addresses",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("address", sa.String(320), nullable=False, unique=True),
        sa.Column("is_primary", sa.Boolean(), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_person_addresses_person_id", "person_addresses", ["person_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("phase", sa.String(16), nullable=True),
        sa.Column("position", sa.JSON(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.Column("phase_started_at", sa.DateTime(), nullable=True),
        sa.Column("checked_at", sa.DateTime(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("gm_person_id", sa.Integer(), sa.ForeignKey("persons.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("power", sa.String(32), nullable=False),
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("persons.id"), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("reply_token", sa.String(32), nullable=True, unique=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("wait", sa.Boolean(), nullable=False),
        sa.Column("draw_vote", sa.JSON(), nullable=True),
        sa.Column("concession", sa.String(32), nullable=True),
        sa.Column("missed_turns", sa.Integer(), nullable=False),
        sa.Column("absences", sa.JSON(), nullable=False),
        sa.Column("signed_on_at", sa.DateTime(), nullable=True),
        sa.Column("orders_state", sa.String(16), nullable=False),
        sa.Column("orders_changed_at", sa.DateTime(), nullable=True),
        sa.Column("replacement_sought", sa.Boolean(), nullable=False),
        sa.Column("standby_person_id", sa.Integer(), sa.ForeignKey("persons.id"), nullable=True),
        sa.UniqueConstraint("game_id", "power", name="uq_seats_game_power"),
    )
    op.create_index("ix_seats_person_id", "seats", ["person_id"])
    op.create_table(
        "observers",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "person_id", name="uq_observers_game_person"),
    )
    op.create_index("ix_observers_person_id", "observers", ["person_id"])
    op.create_table(
        "current_orders",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("power", sa.String(32), nullable=False),
        sa.Column("unit", sa.String(32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("written_at", sa.DateTime(), nullable=False),
        sa.Column("inbox_id", sa.Integer(), sa.ForeignKey("inbox.id"), nullable=True),
        sa.UniqueConstraint("game_id", "phase", "power", "unit", name="uq_current_orders_unit"),
    )
    op.create_table(
        "general_orders",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("power", sa.String(32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("valid_from", sa.String(16), nullable=True),
        sa.Column("valid_to", sa.String(16), nullable=True),
        sa.Column("conditions", sa.Text(), nullable=True),
        sa.Column("written_at", sa.DateTime(), nullable=False),
        sa.Column("inbox_id", sa.Integer(), sa.ForeignKey("inbox.id"), nullable=True),
    )
    op.create_index("ix_general_orders_game_power", "general_orders", ["game_id", "power"])
    op.create_table(
        "phases",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("position_before", sa.JSON(), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("processed_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "phase", name="uq_phases_game_phase"),
    )
    op.create_table(
        "press",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("author_person_id", sa.Integer(), sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("from_power", sa.String(32), nullable=True),
        sa.Column("to_powers", sa.JSON(), nullable=True),
        sa.Column("dateline", sa.String(200), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("published_at", sa.DateTime(), nullable=True),
        sa.Column("held", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_press_author_person_id", "press", ["author_person_id"])
    op.create_index("ix_press_game_created", "press", ["game_id", "created_at"])


def downgrade() -> None:
    """Drop the game tables, children before the tables they point at."""
    op.drop_index("ix_press_game_created", table_name="press")
    op.drop_index("ix_press_author_person_id", table_name="press")
    op.drop_table("press")
    op.drop_table("phases")
    op.drop_index("ix_general_orders_game_power", table_name="general_orders")
    op.drop_table("general_orders")
    op.drop_table("current_orders")
    op.drop_index("ix_observers_person_id", table_name="observers")
    op.drop_table("observers")
    op.drop_index("ix_seats_person_id", table_name="seats")
    op.drop_table("seats")
    op.drop_index("ix_games_deadline", table_name="games")
    op.drop_table("games")
    op.drop_index("ix_person_addresses_person_id", table_name="person_addresses")
    op.drop_table("person_addresses")
    op.drop_table("persons")
