"""One module (or package) per area; each registers its checks with :func:`privclaims.checks.registry.claim`."""
