#!/bin/sh
# Installs this waved bundle: the files to /opt/waved, the `waved` command, the settings directory,
# the device profile template and the systemd unit. Run it as root from the unpacked bundle:
#
#   sudo ./install.sh                     install to /opt/waved and set up the service
#   sudo ./install.sh --deps              also apt-get install the system programs waved drives
#   ./install.sh --root /mnt/image        install into a device image's root file system (no systemctl)
#   ./install.sh --prefix /opt/other      install somewhere else than /opt/waved
#   ./install.sh --no-systemd             do not install the unit (another supervisor runs waved)
#
# It checks every file against SHA256SUMS and the bundle's architecture against the machine's.
# An earlier installation is kept as <prefix>.old until the new one is in place.
set -eu

src=$(dirname "$(readlink -f "$0")")
prefix=/opt/waved
destroot=
systemd=yes
deps=no
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --root) destroot=${2%/}; shift 2 ;;
    --no-systemd) systemd=no; shift ;;
    --deps) deps=yes; shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { echo "install.sh: $*"; }
die() { echo "install.sh: $*" >&2; exit 1; }

[ -f "$src/manifest.json" ] && [ -x "$src/waved" ] || die "run me from an unpacked waved bundle ($src has no manifest.json)"
arch=$(sed -n 's/^  "arch": "\(.*\)",$/\1/p' "$src/manifest.json")
version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$src/manifest.json")

# 1. The bundle is whole and for this machine.
if ! (cd "$src" && sha256sum -c SHA256SUMS >/dev/null 2>&1); then
  (cd "$src" && sha256sum -c SHA256SUMS 2>&1 | grep -v ': OK$' >&2) || true
  die "the bundle is damaged: the files above do not match SHA256SUMS"
fi
if [ -z "$destroot" ]; then
  machine=$(uname -m)
  case "$arch:$machine" in
    x64:x86_64|arm64:aarch64|arm64:arm64|armv7:armv7l|armv7:armv8l) ;;
    *) die "this bundle is for $arch, this machine is $machine: build one with npm run bundle -- --arch <arch>" ;;
  esac
  [ "$(id -u)" = 0 ] || die "run me as root (I write $prefix, /etc/waved and the systemd unit)"
fi

# 2. The system programs waved drives.
if [ -z "$destroot" ]; then
  need=
  command -v hostapd >/dev/null 2>&1 || need="$need hostapd"
  command -v wpa_supplicant >/dev/null 2>&1 || need="$need wpasupplicant"
  command -v udhcpc >/dev/null 2>&1 || need="$need udhcpc"
  command -v iw >/dev/null 2>&1 || need="$need iw"
  command -v ip >/dev/null 2>&1 || need="$need iproute2"
  if [ -n "$need" ]; then
    if [ "$deps" = yes ]; then
      say "installing$need"
      apt-get install -y --no-install-recommends $need
    else
      say "missing system programs; install them with: apt-get install$need  (or run me with --deps)"
    fi
  fi
fi

# 3. The files, swapped in as a whole.
dest="$destroot$prefix"
[ "$(readlink -f "$src")" != "$(readlink -f "$dest" 2>/dev/null || true)" ] || die "the bundle is already at $dest"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest.new"
cp -a "$src" "$dest.new"
rm -rf "$dest.old"
[ -e "$dest" ] && mv "$dest" "$dest.old"
mv "$dest.new" "$dest"
sync
mkdir -p "$destroot/usr/local/bin"
ln -sf "$prefix/waved" "$destroot/usr/local/bin/waved"
say "waved $version ($arch) installed in $dest"

# 4. Settings and the device profile (never overwritten).
mkdir -p "$destroot/etc/waved"; chmod 0700 "$destroot/etc/waved"
if [ -f "$src/device.example.toml" ] && [ ! -e "$destroot/etc/waved/device.toml" ]; then
  (umask 077; cp "$src/device.example.toml" "$destroot/etc/waved/device.toml")
  say "wrote /etc/waved/device.toml from the template: set the serial, the cloud and the hardware paths"
fi

# 5. The service.
if [ "$systemd" = yes ] && [ -f "$src/waved.service" ]; then
  mkdir -p "$destroot/etc/systemd/system"
  sed "s#/opt/waved/#$prefix/#g" "$src/waved.service" > "$destroot/etc/systemd/system/waved.service"
  chmod 0644 "$destroot/etc/systemd/system/waved.service"
  if [ -z "$destroot" ] && [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    say "unit installed: check the profile with 'waved check', then: systemctl enable --now waved"
  else
    say "unit installed in $destroot/etc/systemd/system/waved.service (enable it with: systemctl enable waved)"
  fi
fi
[ -e "$dest.old" ] && say "the previous installation is in $dest.old"
exit 0
