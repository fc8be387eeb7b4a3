"""The operator console (issue 36) in headless Chromium, JavaScript and all, as an operator uses it.

usage: console_browser.py GATEWAY_URL EMAIL PASSWORD TOTP_SECRET APP_NAME STORY_ID AUTHOR_ID SCREENSHOT_DIR NEW_APP GRACE

Signs in with a TOTP code computed here (RFC 6238, SHA-1, 30 s, 6 digits), chooses a password
(the first sign-in's), opens the app's reports queue, finds the reported story, bans its author
from the queue with a reason, then visits the author's page, the story's content page, the audit
log and the operators; then registers an app named NEW_APP (its key shown once), rotates its key
with a grace of GRACE seconds and checks through the gateway that both keys open the app. Saves a screenshot of every screen as SCREENSHOT_DIR/console-<screen>.png.
Prints one JSON line of what it saw.
"""
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


def main():
    gateway, email, password, secret, app_name, story, author, shots, new_app, grace = sys.argv[1:11]
    seen = {"screens": []}
    driver = browser()

    def shot(name):
        driver.save_screenshot("%s/console-%s.png" % (shots, name))
        seen["screens"].append(name)

    def at(path_part):
        WebDriverWait(driver, 15).until(lambda d: path_part in d.current_url)

    try:
        driver.get(gateway + "/admin")
        at("/admin/sign-in")
        shot("sign-in")
        driver.find_element(By.NAME, "email").send_keys(email)
        driver.find_element(By.NAME, "password").send_keys(password)
        driver.find_element(By.NAME, "code").send_keys(totp(secret))
        driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
        at("/admin/password")
        seen["asked_for_password"] = True
        shot("password")
        new_password = "콘솔 비밀번호 " + password
        driver.find_element(By.NAME, "current_password").send_keys(password)
        driver.find_element(By.NAME, "new_password").send_keys(new_password)
        driver.find_element(By.NAME, "repeat_password").send_keys(new_password)
        driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
        at("done=password")
        seen["notice"] = driver.find_element(By.CSS_SELECTOR, "p.notice").text
        shot("overview")

        driver.find_element(By.LINK_TEXT, app_name).click()
        at("/reports")
        group = driver.find_element(By.ID, "g-" + story)
        seen["queued_preview"] = group.find_element(By.CSS_SELECTOR, ".preview").text
        seen["queued_reasons"] = group.find_element(By.CSS_SELECTOR, ".reasons").text
        shot("reports")
        group.find_element(By.NAME, "reason").send_keys("반복된 욕설")
        group.find_element(By.CSS_SELECTOR, "button[value=ban]").click()
        at("done=banned")
        seen["after_ban_notice"] = driver.find_element(By.CSS_SELECTOR, "p.notice").text
        seen["still_queued"] = len(driver.find_elements(By.ID, "g-" + story)) > 0
        shot("reports-after-ban")

        base = driver.current_url.split("/reports")[0]
        driver.get(base + "/users?q=" + author)
        shot("users")
        driver.find_element(By.CSS_SELECTOR, "a[href$='/users/%s']" % author).click()
        at("/users/" + author)
        seen["user_page_banned"] = "Banned" in driver.find_element(By.TAG_NAME, "main").text
        shot("user")
        driver.get(base + "/content?kind=story&id=" + story)
        seen["content_preview"] = driver.find_element(By.CSS_SELECTOR, ".preview").text
        shot("content")
        driver.get(gateway + "/admin/audit")
        seen["audit_actions"] = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "tbody tr td:nth-child(4)")]
        shot("audit")
        driver.get(gateway + "/admin/operators")
        shot("operators")

        driver.get(gateway + "/admin/apps")
        shot("apps")
        form = driver.find_element(By.CSS_SELECTOR, "form[action='/admin/apps']")
        form.find_element(By.NAME, "name").send_keys(new_app)
        form.find_element(By.NAME, "refresh_with_access_token_only").click()
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        old_key = WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "key")).text
        seen["registered_key_status"] = key_status(gateway, old_key)
        seen["old_key"] = old_key
        shot("app-registered")
        driver.find_element(By.LINK_TEXT, "Back to the app").click()
        at("/settings")
        shot("app-settings")
        field = driver.find_element(By.NAME, "grace_seconds")
        field.clear()
        field.send_keys(grace)
        field.find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        at("/rotate-key")
        new_key = driver.find_element(By.ID, "key").text
        seen["old_key_within_grace"] = key_status(gateway, old_key)
        seen["new_key"] = new_key
        seen["new_key_status"] = key_status(gateway, new_key)
        shot("app-key")
        # The browser's own favicon probe is not the console's.
        seen["console_errors"] = [
            entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]
    except Exception:
        print("at %s: %s" % (driver.current_url, driver.page_source[:2000]), file=sys.stderr)
        raise
    finally:
        driver.quit()
    print(json.dumps(seen, ensure_ascii=False))


if __name__ == "__main__":
    main()
