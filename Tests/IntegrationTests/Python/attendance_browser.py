"""The attendance page (API.md §7) in headless Chromium, as a person and as the app use it.

usage: attendance_browser.py GATEWAY_URL APP_KEY TOKEN_A TOKEN_B SCREENSHOT_PATH

Plain browser (reader A): the key and token fields, the button, the count shown; a second
attendance the same day shows the already-attended state. Inside the app (reader B): a stand-in
for WKWebView's `window.webkit.messageHandlers` is in place before the page's script runs and the
app key comes as a header, as the app's web view sends it; the button posts
`click_attendance_button`, the app answers with `requestAttendance(token)`, the page posts
`complete_attendance` with `{attendanceCount}`. Prints one JSON line of what it saw.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BRIDGE = """
window.__posted = [];
window.webkit = { messageHandlers: {
  click_attendance_button: { postMessage: function (m) { window.__posted.push(['click_attendance_button', m]); } },
  complete_attendance: { postMessage: function (m) { window.__posted.push(['complete_attendance', m]); } }
} };
"""


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=480,800"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def settled(driver, previous=""):
    """The result line once the page has finished its request (not empty, not the ellipsis)."""
    WebDriverWait(driver, 15).until(
        lambda d: d.find_element(By.ID, "result").text not in ("", "…", previous))
    result = driver.find_element(By.ID, "result")
    return {"text": result.text, "state": result.get_attribute("class")}


def main():
    gateway, key, token_a, token_b, screenshot = sys.argv[1:6]
    seen = {}
    driver = browser()
    try:
        # A person in a plain browser.
        driver.get(gateway + "/event-application")
        seen["manual_shown"] = driver.find_element(By.ID, "manual").is_displayed()
        driver.find_element(By.ID, "key").send_keys(key)
        driver.find_element(By.ID, "token").send_keys(token_a)
        driver.find_element(By.ID, "attend").click()
        seen["first"] = settled(driver)
        driver.find_element(By.ID, "attend").click()
        seen["second"] = settled(driver, seen["first"]["text"])
        seen["button_disabled"] = not driver.find_element(By.ID, "attend").is_enabled()
        driver.save_screenshot(screenshot)

        # The app's web view: the bridge before any script, the key as a header.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": BRIDGE})
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"SeSACKey": key}})
        driver.get(gateway + "/event-application")
        seen["bridged_manual_shown"] = driver.find_element(By.ID, "manual").is_displayed()
        driver.find_element(By.ID, "attend").click()
        seen["after_click"] = driver.execute_script("return window.__posted.slice()")
        driver.execute_script("window.requestAttendance(arguments[0])", token_b)
        seen["bridged"] = settled(driver)
        WebDriverWait(driver, 15).until(lambda d: len(d.execute_script("return window.__posted")) >= 2)
        seen["posted"] = driver.execute_script("return window.__posted")
    finally:
        driver.quit()
    print(json.dumps(seen, ensure_ascii=False))


if __name__ == "__main__":
    main()
