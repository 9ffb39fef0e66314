//! What every `--plot` figure shares: the font, one colour per series, the drawing area type,
//! and the output file (checked before any computation, written at the end).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::shared::Fail;

/// The font of every label.
pub(crate) const FONT: &str = "sans-serif";

/// The colour of series `i` (the same series keeps its colour across panels).
pub(crate) fn color(i: usize) -> RGBAColor {
    Palette99::pick(i).to_rgba()
}

/// A panel of the picture.
pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// What drawing a panel gives.
pub(crate) type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Fails unless `path` can be written (checked before any computation, so a bad path costs
/// nothing; an existing file is left as it is until [`write`], a new one is not left behind).
pub(crate) fn check_writable(path: &str) -> Result<(), Fail> {
    let existed = std::path::Path::new(path).exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| Fail::new(format!("--plot {path}: cannot write: {e}")))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Writes an SVG of `size` pixels to `path`: a white page that `draw` fills.
pub(crate) fn write(
    path: &str,
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> DrawResult,
) -> Result<(), Fail> {
    let fail = |e: &dyn std::fmt::Display| Fail::new(format!("--plot {path}: {e}"));
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    draw(&root).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
