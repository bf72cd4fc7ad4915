package lab.common;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.CharBuffer;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.InputBuffer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

/**
 * Sizes the character buffer of Tomcat's request reader ({@code lab.tomcat.request-reader-chars}, in chars). Tomcat
 * keeps one request object per connection in flight, and each allocates its reader's buffer at 8 K chars (16 KB of
 * heap) when it is created, whether or not the application ever reads a body as characters; no setting reaches it
 * ({@code Request} creates its {@code InputBuffer} with the default size). This valve gives each new request object,
 * before the application sees it, a buffer of the configured size instead. Nothing is lost: Tomcat's reader grows
 * its buffer on demand when a body is read as characters ({@code InputBuffer.makeSpace}), and {@code recycle()}
 * keeps a buffer that is not larger than the default. The fields are reached by {@link VarHandle} (Tomcat's classes
 * sit on the class path, in the same unnamed module as this one); checked against Tomcat 11 by
 * {@code RequestReaderValveTests}. Only a tuning sets it.
 */
public final class RequestReaderValve extends ValveBase {

	private static final VarHandle INPUT_BUFFER;

	private static final VarHandle CHARS;

	static {
		try {
			INPUT_BUFFER = MethodHandles.privateLookupIn(Request.class, MethodHandles.lookup())
				.findVarHandle(Request.class, "inputBuffer", InputBuffer.class);
			CHARS = MethodHandles.privateLookupIn(InputBuffer.class, MethodHandles.lookup())
				.findVarHandle(InputBuffer.class, "cb", CharBuffer.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("this Tomcat's request reader has no inputBuffer.cb field: "
					+ "remove lab.tomcat.request-reader-chars from the tuning", ex);
		}
	}

	private final int chars;

	public RequestReaderValve(int chars) {
		super(true);
		if (chars < 1) {
			throw new IllegalArgumentException("lab.tomcat.request-reader-chars must be at least 1 char, got " + chars);
		}
		this.chars = chars;
	}

	@Override
	public void invoke(Request request, Response response) throws IOException, ServletException {
		shrink(request);
		getNext().invoke(request, response);
	}

	/** Replaces the reader's buffer of a request object once: later requests on it find it small already. */
	void shrink(Request request) {
		InputBuffer in = (InputBuffer) INPUT_BUFFER.get(request);
		CharBuffer current = (CharBuffer) CHARS.get(in);
		if (current.capacity() > this.chars && current.position() == 0 && current.limit() == 0) {
			CharBuffer small = CharBuffer.allocate(this.chars);
			small.limit(0);
			CHARS.set(in, small);
		}
	}

	/** The capacity of a request object's reader buffer, in chars. */
	static int readerCapacity(Request request) {
		return ((CharBuffer) CHARS.get((InputBuffer) INPUT_BUFFER.get(request))).capacity();
	}

}
