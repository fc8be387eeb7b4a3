"""What the console's browser tests share: a TOTP code, headless Chromium, a first sign-in."""
import base64
import hashlib
import hmac
import json
import struct
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def totp(secret):
    """RFC 6238: SHA-1, 30-second steps, six digits."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(time.time()) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return "%06d" % (number % 1_000_000)


def key_status(gateway, key):
    """The gateway's status for a keyed route without a token: 420 when it does not know the key."""
    request = urllib.request.Request(gateway + "/v1/users/me/profile", headers={"SeSACKey": key})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=ko-KR"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


class Console:
    """One operator's visit: screenshots as SHOTS/console-<screen>.png, the screens seen."""

    def __init__(self, driver, gateway, shots):
        self.driver, self.gateway, self.shots, self.screens = driver, gateway, shots, []

    def shot(self, name):
        self.driver.save_screenshot("%s/console-%s.png" % (self.shots, name))
        self.screens.append(name)

    def at(self, path_part):
        WebDriverWait(self.driver, 15).until(lambda d: path_part in d.current_url)

    def sign_in_first_time(self, email, password, secret):
        """Signs in with a code computed here and chooses a password; answers the notice shown."""
        driver = self.driver
        driver.get(self.gateway + "/admin")
        self.at("/admin/sign-in")
        self.shot("sign-in")
        driver.find_element(By.NAME, "email").send_keys(email)
        driver.find_element(By.NAME, "password").send_keys(password)
        driver.find_element(By.NAME, "code").send_keys(totp(secret))
        driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
        self.at("/admin/password")
        self.shot("password")
        new_password = "콘솔 비밀번호 " + password
        driver.find_element(By.NAME, "current_password").send_keys(password)
        driver.find_element(By.NAME, "new_password").send_keys(new_password)
        driver.find_element(By.NAME, "repeat_password").send_keys(new_password)
        driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
        self.at("done=password")
        return driver.find_element(By.CSS_SELECTOR, "p.notice").text

    def errors(self):
        """SEVERE lines of the browser's console (a CSP violation, a failed load), but its own favicon probe."""
        return [
            entry["message"] for entry in self.driver.get_log("browser")
            if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]


def visit(gateway, shots, steps):
    """Runs `steps(console, seen)` in a fresh browser, then prints one JSON line of what it saw
    (with the screens shot); on a failure, the page it failed on goes to stderr."""
    seen = {}
    driver = browser()
    console = Console(driver, gateway, shots)
    try:
        steps(console, seen)
        seen["console_errors"] = console.errors()
    except Exception:
        print("at %s: %s" % (driver.current_url, driver.page_source[:2000]), file=sys.stderr)
        raise
    finally:
        driver.quit()
    seen["screens"] = console.screens
    print(json.dumps(seen, ensure_ascii=False))
