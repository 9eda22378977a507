"""Reading mail text: the order grammar, province names, and errors a player can act on."""
