"""The Qt application on top of core/."""
