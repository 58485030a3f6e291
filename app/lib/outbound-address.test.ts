import { describe, expect, it } from "vitest";
import { classifyAddress, hostWithPort, isPublicAddress, parseAddress, type AddressClass } from "./outbound-address";

describe("classifyAddress", () => {
  it.each<[string, AddressClass]>([
    // Loopback in every spelling the URL standard (and inet_aton) accepts.
    ["127.0.0.1", "loopback"],
    ["127.1", "loopback"],
    ["0x7f000001", "loopback"],
    ["0X7F.0.0.1", "loopback"],
    ["2130706433", "loopback"],
    ["017700000001", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["[::1]", "loopback"],
    ["::1", "loopback"],
    ["[0:0:0:0:0:0:0:1]", "loopback"],
    // IPv4 inside IPv6.
    ["[::ffff:127.0.0.1]", "mapped"],
    ["[::ffff:7f00:1]", "mapped"],
    ["[::ffff:8.8.8.8]", "mapped"],
    ["[::127.0.0.1]", "mapped"],
    ["[64:ff9b::7f00:1]", "mapped"],
    ["[64:ff9b:1::a00:1]", "mapped"],
    ["[2002:7f00:1::]", "mapped"],
    ["[2001:0:4136:e378::1]", "mapped"],
    // Cloud metadata.
    ["169.254.169.254", "metadata"],
    ["0xa9fea9fe", "metadata"],
    ["2852039166", "metadata"],
    ["100.100.100.200", "metadata"],
    ["169.254.0.23", "metadata"],
    ["[fd00:ec2::254]", "metadata"],
    // Private, shared, link-local, ULA.
    ["10.0.0.1", "private"],
    ["012.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared"],
    ["169.254.1.1", "link-local"],
    ["[fe80::1]", "link-local"],
    ["[fd00::1]", "ula"],
    ["[fc00::1]", "ula"],
    ["[fec0::1]", "private"],
    // Unspecified, multicast, reserved.
    ["0.0.0.0", "unspecified"],
    ["0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["[::]", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["[ff02::1]", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["198.18.0.1", "reserved"],
    ["[2001:db8::1]", "reserved"],
    ["[100::1]", "reserved"],
    ["[4000::1]", "reserved"],
    // What a school really is.
    ["8.8.8.8", "public"],
    ["202.115.32.14", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["[2001:da8:8000::1]", "public"],
    ["[2400:3200::1]", "public"],
    // Names and nonsense are not addresses.
    ["jw.example.edu.cn", "invalid"],
    ["localhost", "invalid"],
    ["256.1.1.1", "invalid"],
    ["0x100000000", "invalid"],
    ["1.2.3.4:80", "invalid"],
    ["[fe80::1%25eth0]", "invalid"],
    ["", "invalid"],
  ])("%s is %s", (input, expected) => {
    expect(classifyAddress(input)).toBe(expected);
  });

  it("calls only public addresses public", () => {
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(isPublicAddress("2130706433")).toBe(false);
    expect(isPublicAddress("jw.example.edu.cn")).toBe(false);
  });

  it("parses the tricky forms to the address they mean", () => {
    expect(parseAddress("0x7f000001")).toEqual({ family: 4, value: 0x7f000001 });
    expect(parseAddress("[::ffff:127.0.0.1]")).toEqual({ family: 6, groups: [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1] });
    expect(parseAddress("example.com")).toBeNull();
  });

  it("names a URL's host with its default port", () => {
    expect(hostWithPort(new URL("https://jw.example.edu.cn/jwglxt"))).toBe("jw.example.edu.cn:443");
    expect(hostWithPort(new URL("http://2130706433:8080/"))).toBe("127.0.0.1:8080");
    expect(hostWithPort(new URL("http://[::1]/"))).toBe("[::1]:80");
  });
});
