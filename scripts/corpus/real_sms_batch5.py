# Batch 5 of the real-message corpus (see real-sms.py): three messages met after batch 4 had been
# scored and tuned on, scored once as collected (docs/decisions/048). A parcel app's mock
# notifications that copy its developer's own messages: one housing estate (福鼎家园 in Hangzhou's
# Yuhang district), three stations, a 申通 code whose last four digits are its waybill's tail as
# real 申通 notices have them. The second is a shopping app's notification, not an SMS; students
# paste those too.
N = None
MOCKS = "github: parcel app's WebView mock notifications (福鼎家园), find_string id 61923961064"
ROWS = [
 (MOCKS, "【菜鸟驿站】您的包裹已到站，凭14-2-0117到杭州余杭福鼎家园晓风苑6-5店取件。详询4001787878",
  [("14-2-0117", "菜鸟驿站", "杭州余杭福鼎家园晓风苑6-5店", N)]),
 (MOCKS, "您的圆通快递已存入福鼎家园东门7-1顺丰驿站，取件码：10-5-9936，请及时领取~",
  [("10-5-9936", "圆通速递", "福鼎家园东门7-1顺丰驿站", N)]),
 (MOCKS, "【申通快递】您的772077836834709包裹已存放福鼎家园晓风苑31-5喵站，取件码9-3-4709，请及时领取",
  [("9-3-4709", "申通快递", "福鼎家园晓风苑31-5喵站", "772077836834709")]),
]
