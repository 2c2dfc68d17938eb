"""One module (or package) per area; each registers its checks with :func:`checks.registry.claim`."""
