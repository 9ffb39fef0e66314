//! `simulate --plot FILE.svg`: the figures as a picture (plotters, SVG backend). The hash
//! experiment draws [`experiment`]'s figures, `--algorithms` those of [`algorithms`]; both
//! draw with [`svg`]'s fonts, colours and file checks.

pub(crate) mod algorithms;
pub(crate) mod experiment;
pub(crate) mod svg;
