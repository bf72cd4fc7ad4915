#!/bin/bash
# The test's SSH ProxyCommand: an EC2 instance of the emulator, reached by its public address, is a container of the
# instance image with the instance's own private address on a network with the subnet's range. The first connection
# to an address starts its container, gives it the operator's key and runs the instance's real user data in it (as
# cloud-init would, once); then it relays the SSH connection to the container's sshd.
# Environment (set by AwsCommandsTests): LAB_TEST_MOTO, LAB_TEST_REGION, LAB_TEST_PYTHON, LAB_TEST_NETWORK,
# LAB_TEST_IMAGE, LAB_TEST_PREFIX, LAB_TEST_KEY (public key), LAB_TEST_DIR.
set -euo pipefail
public="$1"
exec 9>"$LAB_TEST_DIR/route.lock"
flock 9
user_data="$LAB_TEST_DIR/user-data-$public.sh"
read -r private name < <("$LAB_TEST_PYTHON" - "$LAB_TEST_MOTO" "$LAB_TEST_REGION" "$public" "$user_data" <<'PY'
import base64, sys
import boto3
ec2 = boto3.client("ec2", endpoint_url=sys.argv[1], region_name=sys.argv[2], aws_access_key_id="testing", aws_secret_access_key="testing")
filters = [{"Name": "ip-address", "Values": [sys.argv[3]]}, {"Name": "instance-state-name", "Values": ["running"]}]
for reservation in ec2.describe_instances(Filters=filters)["Reservations"]:
    for instance in reservation["Instances"]:
        data = ec2.describe_instance_attribute(InstanceId=instance["InstanceId"], Attribute="userData")["UserData"].get("Value", "")
        open(sys.argv[4], "w").write(base64.b64decode(data).decode())
        print(instance["PrivateIpAddress"], {t["Key"]: t["Value"] for t in instance.get("Tags", [])}.get("Name", instance["InstanceId"]))
PY
)
[ -n "${private:-}" ] || { echo "route.sh: no running instance has the public address $public" >&2; exit 1; }
container="$LAB_TEST_PREFIX-$name"
if ! podman container exists "$container"; then
  podman run -d --name "$container" --hostname "$name" --network "$LAB_TEST_NETWORK" --ip "$private" "$LAB_TEST_IMAGE" >/dev/null
  podman exec -i "$container" sh -c 'mkdir -p /home/ubuntu/.ssh && cat > /home/ubuntu/.ssh/authorized_keys && chown -R ubuntu:ubuntu /home/ubuntu/.ssh && chmod 600 /home/ubuntu/.ssh/authorized_keys' <"$LAB_TEST_KEY"
  podman cp "$user_data" "$container:/var/lib/cloud/user-data.sh"
  # As cloud-init runs it: as root, once, its output kept; the exit code for `cloud-init status --wait`.
  podman exec -d "$container" bash -c 'bash /var/lib/cloud/user-data.sh >/var/log/cloud-init-output.log 2>&1; echo $? >/var/lib/cloud/user-data.exit'
  echo "route.sh: $public is $container at $private" >>"$LAB_TEST_DIR/route.log"
fi
flock -u 9
for _ in $(seq 50); do
  podman exec "$container" nc -z 127.0.0.1 22 2>/dev/null && break
  sleep 0.2
done
exec podman exec -i "$container" nc 127.0.0.1 22
