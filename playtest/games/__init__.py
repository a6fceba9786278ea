"""The games of the kit, one package each. They register through the
``playtest.games`` entry points (see ``playtest.engine.registry``)."""
