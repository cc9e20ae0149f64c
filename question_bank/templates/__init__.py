"""The bank's templates: one module per topic, or a package per topic whose modules are named by subject.

Each module registers its templates with ``@template``; ``registry.load_all`` finds them all, packages included.
Modules that hold no template (``chip_givens``, ``model_params``, ``served_models``) hold the pieces several
topics share.
"""
