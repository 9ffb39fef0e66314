//! `simulate --plot FILE.svg`: the figures as a picture (plotters, SVG backend). The hash
//! experiment draws [`experiment`]'s figures, `--algorithms` those of [`algorithms`]; both
//! draw with [`svg`]'s fonts, colours and file checks.

pub mod algorithms;
pub mod experiment;
pub mod svg;
