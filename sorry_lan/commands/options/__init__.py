"""Each command's options: read and checked before what runs the command is loaded.

``sorry_lan.cli`` imports the options module of the command asked for; its
``add_arguments(parser)`` adds the options, ``check(args)`` (if any) finds the usage
errors that need more than one option, and ``run(args)`` imports the command's own
module (:mod:`sorry_lan.commands`) and runs it.  So a usage error, ``--help`` or
``--version`` cost little more than Python's start.  A value's check that needs more
of the package (a name the protocol must carry, an address) imports it when the
option is given.  These modules import only the standard library, ``sorry_lan.i18n``
and a few constants.
"""
