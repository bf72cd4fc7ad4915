package lab.downstream;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class DownstreamApplication {

	public static void main(String[] args) {
		SpringApplication.run(DownstreamApplication.class, args);
	}

}
