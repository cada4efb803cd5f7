#!/bin/sh
# Guest /init: mounts, installs the device bundle, five mac80211_hwsim radios in four network
# namespaces, then the scenario.
#   device: the appliance's radio   phone: a phone   phone2: a second station   home: two home APs
/bin/busybox --install -s
export PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin
# A static busybox's shell runs its own applets first; ip must be iproute2's (netns).
ip() { /usr/bin/ip "$@"; }
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp; mount -t tmpfs run /run; mkdir -p /run/netns /var/run
echo /sbin/modprobe > /proc/sys/kernel/modprobe
say() { echo "=== T+$(cut -d' ' -f1 /proc/uptime) $*"; }
say "init ($(uname -m), $(nproc) CPUs)"
say "STEP 0 install the bundle"
/bundle/install.sh || say "install.sh failed"
rm -rf /bundle
ln -s /opt/waved/node/bin/node /usr/bin/node
say "node $(node --version)"
modprobe mac80211_hwsim radios=5 || say "modprobe mac80211_hwsim failed"
for m in ccm gcm ctr cmac; do modprobe $m 2>/dev/null; done
ip link set lo up
for ns in device phone phone2 home; do ip netns add $ns; ip netns exec $ns ip link set lo up; done
# phy names follow creation order; map each wlanN's phy to its namespace and give it a stable name.
move() { # wlanN ns newname
  phy=$(cat /sys/class/net/$1/phy80211/name)
  iw phy "$phy" set netns name "$2"
  ip netns exec "$2" ip link set "$1" name "$3"
}
move wlan0 device wlan0
move wlan1 phone wlan0
move wlan2 home wlan0
move wlan3 home wlan1
move wlan4 phone2 wlan0
say "radios: device=$(ip netns exec device iw dev | grep -c Interface) phone=$(ip netns exec phone iw dev | grep -c Interface) home=$(ip netns exec home iw dev | grep -c Interface) phone2=$(ip netns exec phone2 iw dev | grep -c Interface)"
cd /app
ip netns exec device node /app/scenario.mjs
rc=$?
say "scenario exit $rc"
if [ "$rc" = 0 ]; then echo "WAVED-E2E: PASS"; else echo "WAVED-E2E: FAIL rc=$rc"; fi
sync
poweroff -f
