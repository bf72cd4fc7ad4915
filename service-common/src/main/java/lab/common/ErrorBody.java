package lab.common;

/** The only error shape any service returns: short, stable, never a stack trace. */
public record ErrorBody(String error, String detail) {
}
