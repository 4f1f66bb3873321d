"""Small helpers every room uses: the guard against exceptions, error reports, subscriptions, resources."""
