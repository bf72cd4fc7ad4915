package lab.common;

import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's NIO protocol with the size of each response's output buffer set ({@code lab.tomcat.response-buffer-size}).
 * Tomcat gives every request in flight a response buffer of 8 KB of bytes plus 8 K chars (16 KB) and asks the protocol
 * handler for another size through {@link #getDesiredBufferSize()}, which HTTP/1.1 leaves at "no preference"; this
 * contract's answers are a few hundred bytes. A larger answer is written in several flushes, not truncated.
 */
public class ResponseBufferHttp11NioProtocol extends Http11NioProtocol {

	/** Set before the server starts; Tomcat creates the protocol by class name, so it cannot be injected. */
	static volatile int responseBufferSize = -1;

	@Override
	public int getDesiredBufferSize() {
		return responseBufferSize;
	}

}
