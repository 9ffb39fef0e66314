package org.ketama;

/** A change of a ring built from explicit points: build a new one (core's {@code FixedPoints}). */
public class FixedPointsException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public FixedPointsException(String message) {
        super("FixedPoints", message);
    }
}
