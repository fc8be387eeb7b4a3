"""The operator console's payments and request log (issue 36) in headless Chromium.

usage: console_operations.py GATEWAY_URL EMAIL PASSWORD TOTP_SECRET APP_NAME IMP_UID FAILED_REQUEST_ID SCREENSHOT_DIR

Signs in for the first time, opens APP_NAME's payments, finds IMP_UID and refunds it with a
reason (PortOne cancels it), reads the receipt's status; then finds FAILED_REQUEST_ID in the
request log and opens it to its lines in the services' logs. Saves console-<screen>.png for each
screen under SCREENSHOT_DIR and prints one JSON line of what it saw.
"""
import sys

from selenium.webdriver.common.by import By

from console_common import visit


def main():
    gateway, email, password, secret, app_name, imp_uid, failed, shots = sys.argv[1:9]

    def steps(console, seen):
        driver = console.driver
        console.sign_in_first_time(email, password, secret)
        seen["users_total"] = driver.find_element(By.ID, "users-total").text
        console.shot("overview")
        driver.find_element(By.LINK_TEXT, app_name).click()
        console.at("/reports")
        driver.find_element(By.LINK_TEXT, "Payments").click()
        console.at("/payments")
        driver.find_element(By.NAME, "imp_uid").send_keys(imp_uid)
        driver.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]").click()
        console.at("imp_uid=" + imp_uid)
        row = driver.find_element(By.ID, "p-" + imp_uid)
        seen["status_before"] = row.find_element(By.CSS_SELECTOR, ".status").text
        console.shot("payments")
        row.find_element(By.NAME, "reason").send_keys("고객 요청 환불")
        row.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        console.at("done=refunded")
        seen["refund_notice"] = driver.find_element(By.CSS_SELECTOR, "p.notice").text
        seen["status_after"] = driver.find_element(By.ID, "p-" + imp_uid).find_element(By.CSS_SELECTOR, ".status").text
        console.shot("payments-refunded")
        driver.find_element(By.LINK_TEXT, "Push").click()
        console.at("/push")
        seen["push_heading"] = driver.find_element(By.TAG_NAME, "h1").text
        console.shot("push")

        driver.find_element(By.LINK_TEXT, "Request log").click()
        console.at("/admin/requests")
        driver.find_element(By.NAME, "request_id").send_keys(failed)
        driver.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]").click()
        console.at("request_id=" + failed)
        console.shot("requests")
        driver.find_element(By.LINK_TEXT, failed).click()
        console.at("/admin/requests/" + failed)
        seen["request_status"] = driver.find_element(By.ID, "status").text
        seen["request_lines"] = [
            [cell.text for cell in line.find_elements(By.TAG_NAME, "td")] for line in driver.find_elements(By.CSS_SELECTOR, "tr.line")]
        console.shot("request")

    visit(gateway, shots, steps)


if __name__ == "__main__":
    main()
