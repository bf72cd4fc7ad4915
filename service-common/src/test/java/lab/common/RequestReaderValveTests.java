package lab.common;

import java.io.BufferedReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.InputBuffer;
import org.apache.tomcat.util.net.ApplicationBufferHandler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The valve against Tomcat's own request objects: the buffer shrinks once, and a large body still reads whole. */
class RequestReaderValveTests {

	@Test
	void tomcatStillAllocatesEightKCharsPerRequestObject() {
		// If a Tomcat upgrade makes the buffer lazy or smaller, the tuning setting is no longer needed.
		assertThat(RequestReaderValve.readerCapacity(request(""))).isEqualTo(8192);
	}

	@Test
	void aNewRequestObjectGetsTheSmallBufferBeforeTheApplicationRuns() throws Exception {
		Request request = request("");
		AtomicReference<Integer> seenByApplication = new AtomicReference<>();
		RequestReaderValve valve = new RequestReaderValve(128);
		valve.setNext(new ValveBase() {
			@Override
			public void invoke(Request request, Response response) {
				seenByApplication.set(RequestReaderValve.readerCapacity(request));
			}
		});
		valve.invoke(request, null);
		assertThat(seenByApplication.get()).isEqualTo(128);
	}

	@Test
	void aBodyLargerThanTheBufferIsReadWhole() throws Exception {
		String body = "x".repeat(20_000) + "end";
		Request request = request(body);
		new RequestReaderValve(128).shrink(request);
		StringBuilder read = new StringBuilder();
		try (BufferedReader reader = request.getReader()) {
			char[] chunk = new char[1000];
			for (int n; (n = reader.read(chunk)) != -1;) {
				read.append(chunk, 0, n);
			}
		}
		assertThat(read.toString()).isEqualTo(body);
	}

	@Test
	void recyclingKeepsTheSmallBuffer() {
		Request request = request("");
		new RequestReaderValve(128).shrink(request);
		request.recycle();
		assertThat(RequestReaderValve.readerCapacity(request)).isEqualTo(128);
	}

	@Test
	void aSizeBelowOneIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RequestReaderValve(0))
			.withMessageContaining("lab.tomcat.request-reader-chars");
	}

	/** A Catalina request over a coyote request whose body is {@code body}, as Tomcat's adapter creates one. */
	private static Request request(String body) {
		org.apache.coyote.Request coyote = new org.apache.coyote.Request();
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		coyote.setInputBuffer(new InputBuffer() {

			private boolean sent;

			@Override
			public int doRead(ApplicationBufferHandler handler) {
				if (this.sent || bytes.length == 0) {
					return -1;
				}
				this.sent = true;
				handler.setByteBuffer(ByteBuffer.wrap(bytes));
				return bytes.length;
			}

			@Override
			public int available() {
				return this.sent ? 0 : bytes.length;
			}

		});
		coyote.setContentLength(bytes.length);
		coyote.setCharset(StandardCharsets.UTF_8);
		coyote.setResponse(new org.apache.coyote.Response());
		return new Request(new Connector(), coyote);
	}

}
