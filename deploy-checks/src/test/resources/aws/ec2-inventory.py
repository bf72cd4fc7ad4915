"""What the EC2 emulator holds, as JSON on stdout: asked of it directly (boto3), not of Terraform's state, so the test
checks what the provider really created. Usage: python ec2-inventory.py ENDPOINT REGION"""
import base64
import json
import sys

import boto3

endpoint, region = sys.argv[1], sys.argv[2]
ec2 = boto3.client("ec2", endpoint_url=endpoint, region_name=region, aws_access_key_id="testing",
                   aws_secret_access_key="testing")

def tags(resource):
    return {t["Key"]: t["Value"] for t in resource.get("Tags", [])}

instances = []
for reservation in ec2.describe_instances()["Reservations"]:
    for i in reservation["Instances"]:
        if i["State"]["Name"] == "terminated":
            continue
        attribute = ec2.describe_instance_attribute(InstanceId=i["InstanceId"], Attribute="userData")
        user_data = attribute.get("UserData", {}).get("Value")
        volumes = [m["Ebs"]["VolumeId"] for m in i.get("BlockDeviceMappings", []) if "Ebs" in m]
        described = ec2.describe_volumes(VolumeIds=volumes)["Volumes"] if volumes else []
        instances.append({
            "id": i["InstanceId"], "type": i["InstanceType"], "state": i["State"]["Name"], "tags": tags(i),
            "subnet": i.get("SubnetId"), "privateIp": i.get("PrivateIpAddress"), "publicIp": i.get("PublicIpAddress"),
            "keyName": i.get("KeyName"), "imageId": i.get("ImageId"),
            "securityGroups": [g["GroupId"] for g in i.get("SecurityGroups", [])],
            "httpTokens": i.get("MetadataOptions", {}).get("HttpTokens"),
            "volumes": [{"encrypted": v["Encrypted"], "type": v["VolumeType"], "size": v["Size"]} for v in described],
            "userData": base64.b64decode(user_data).decode() if user_data else None,
        })

vpcs = [v for v in ec2.describe_vpcs()["Vpcs"] if not v.get("IsDefault")]
vpc_ids = [v["VpcId"] for v in vpcs]
by_vpc = [{"Name": "vpc-id", "Values": vpc_ids}] if vpc_ids else None

def described(call, key):
    return call(Filters=by_vpc)[key] if by_vpc else []

print(json.dumps({
    "vpcs": [{"id": v["VpcId"], "cidr": v["CidrBlock"], "tags": tags(v)} for v in vpcs],
    "subnets": [{"id": s["SubnetId"], "cidr": s["CidrBlock"], "zone": s["AvailabilityZone"],
                 "mapPublicIp": s["MapPublicIpOnLaunch"]} for s in described(ec2.describe_subnets, "Subnets")],
    "routeTables": [{"id": r["RouteTableId"], "routes": [{"cidr": x.get("DestinationCidrBlock"), "gateway": x.get("GatewayId")}
                    for x in r["Routes"]], "subnets": [a.get("SubnetId") for a in r.get("Associations", []) if a.get("SubnetId")]}
                    for r in described(ec2.describe_route_tables, "RouteTables")],
    "internetGateways": [g["InternetGatewayId"] for g in
                         (ec2.describe_internet_gateways(Filters=[{"Name": "attachment.vpc-id", "Values": vpc_ids}])["InternetGateways"] if vpc_ids else [])],
    "securityGroups": [{"id": g["GroupId"], "name": g["GroupName"], "description": g["Description"],
                        "ingress": [{"from": p.get("FromPort"), "to": p.get("ToPort"), "protocol": p["IpProtocol"],
                                     "cidrs": [c["CidrIp"] for c in p.get("IpRanges", [])],
                                     "groups": [x["GroupId"] for x in p.get("UserIdGroupPairs", [])],
                                     "descriptions": [c.get("Description") for c in p.get("IpRanges", []) + p.get("UserIdGroupPairs", [])]}
                                    for p in g["IpPermissions"]],
                        "egress": len(g["IpPermissionsEgress"])} for g in described(ec2.describe_security_groups, "SecurityGroups")],
    "instances": instances,
}, indent=1))
