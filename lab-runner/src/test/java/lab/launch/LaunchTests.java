package lab.launch;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LaunchTests {

	@Test
	void freePortsLieBelowTheEphemeralRangeAreBindableAndNeverRepeat() throws Exception {
		int ephemeralLow = Launch.ephemeralLow();
		Set<Integer> ports = new HashSet<>();
		for (int i = 0; i < 50; i++) {
			int port = Launch.freePort();
			assertThat(port).as("a port no outgoing connection is given").isBetween(1_024, ephemeralLow - 1);
			assertThat(ports.add(port)).as("port " + port + " handed out twice").isTrue();
		}
		// Handed out, not held: each binds now, as the child it was chosen for will.
		for (int port : ports) {
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				assertThat(socket.getLocalPort()).isEqualTo(port);
			}
		}
	}

	@Test
	void aPortTakenOnTheLoopbackIsNotHandedOut() throws Exception {
		int port = Launch.freePort();
		try (ServerSocket taken = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			for (int i = 0; i < 200; i++) {
				assertThat(Launch.freePort()).isNotEqualTo(port);
			}
		}
	}

}
