"""Pictures of the board: the position after a phase (or a board's start) drawn as SVG, and PNG
for mail readers without SVG, each reader shown what he may see. The drawing is pure
(`source.picture_svg`); the picture step (`step.py`) attaches the pictures to the results mails
outside every game's transaction. README.md beside this file says how and why."""
