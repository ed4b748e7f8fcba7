//! Draws a game view as a PNG: a pure function of the view, the viewer and the highlights.
